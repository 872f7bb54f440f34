a = "%{ while true }"
