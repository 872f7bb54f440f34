a = true &&
  false
