true {
  k = 1
}

true = /* c */ !!0.5
