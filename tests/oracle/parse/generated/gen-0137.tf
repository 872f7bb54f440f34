true {
  k = 1
}

true = /* c */ !!1