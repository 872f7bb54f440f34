terraform {
  required_version = ">= 1.5"
  backend "s3" {
    bucket = "b"
    key    = "k"
  }
}
