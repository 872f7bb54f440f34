a = "%{ for x in y }"
