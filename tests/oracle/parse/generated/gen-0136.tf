x1 {
  k = 1
}

true = /* c */ !!1