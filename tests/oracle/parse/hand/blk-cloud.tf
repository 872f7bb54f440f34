terraform {
  cloud {
    organization = "o"
    workspaces {
      tags = ["a"]
    }
  }
}
