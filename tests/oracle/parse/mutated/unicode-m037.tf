ünïcödé = "ü"
block "日本"  "値"
}
