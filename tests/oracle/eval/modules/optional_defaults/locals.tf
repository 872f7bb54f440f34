locals {
  pool_sizes = { for name, pool in var.pools : name => pool.size }
  enabled    = var.settings.enabled ? "on" : "off"
}
