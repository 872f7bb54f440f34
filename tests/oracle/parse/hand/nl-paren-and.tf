a = (
  true &&
  false
)
