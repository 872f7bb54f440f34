x = provider::aws::arn_parse("x")
