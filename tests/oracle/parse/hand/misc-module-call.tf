module "m" {
  source  = "./m"
  for_each = toset(["a"])
  name    = each.key
  providers = {
    aws = aws.x
  }
}
