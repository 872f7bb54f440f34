a = <<M1
${<<M0
x
M0
}
M1
