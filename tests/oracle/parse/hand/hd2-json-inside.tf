a = <<JSON
{
  "a": ${jsonencode(x)},
  "b": [1, 2]
}
JSON
