x1 {
  k = 1
}

true = /* c */ - -[]
if "" x1 {}
