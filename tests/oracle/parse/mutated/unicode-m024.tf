ünïcödé = "ü"
bloc"値"
}
