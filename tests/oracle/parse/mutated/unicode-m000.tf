ünïcödé = "ü"
block "