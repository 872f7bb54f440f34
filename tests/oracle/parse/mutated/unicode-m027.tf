ünïcödé = "ü"
block "日本" {
  名前 =