a = <<-OUT
  ${indent(2, <<-IN
    x
    IN
  )}
  OUT
