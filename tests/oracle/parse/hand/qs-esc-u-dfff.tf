a = "\udfff"
