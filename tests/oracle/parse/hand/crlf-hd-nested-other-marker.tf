a = <<A
${<<B
b
B
}
A
