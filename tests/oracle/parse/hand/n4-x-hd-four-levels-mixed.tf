a = <<A
${<<B
${<<A
${<<B
A
B
}
A
}
B
}
A
