terraform {
  required_providers {
    null = { source = "hashicorp/null" }
  }
}
