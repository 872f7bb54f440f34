terraform {
  source = "../../modules/kapsule"
}

remote_state {
  backend = "s3"
  config = {
    bucket = "tfstate"
    key    = "prod/kapsule.tfstate"
  }
}
