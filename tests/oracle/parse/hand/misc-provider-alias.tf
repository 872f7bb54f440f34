provider "scaleway" {
  alias  = "ams"
  region = "nl-ams"
}
