a = <<END
${<<EOT
${<<END
${<<EOT
${<<END
x
END
}
EOT
}
END
}
EOT
}
END
