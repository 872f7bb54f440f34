x = {
  for k, v in y :
  k => v
  if v
}
