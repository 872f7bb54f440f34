a = true ||
  false
