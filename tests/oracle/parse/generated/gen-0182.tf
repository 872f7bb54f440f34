if = {for=a²} true {
  k = 1
}

if = {for=a²}
