ünïcödé = "ü"
block "日本" {