provider "scaleway" {
  region = "fr-par"
}

resource "scaleway_vpc_private_network" "this" {
  name = "example"
}

module "kapsule" {
  source = "../../"

  name               = "example"
  private_network_id = scaleway_vpc_private_network.this.id
  pools = {
    general = { node_type = "PRO2-S", size = 2 }
    ingress = { node_type = "POP2-2C-8G", size = 2 }
  }
}
