services = {
  web = {
    port   = "8080"
    expose = "true"
    probes = [{ path = "/ready" }, { interval = "30" }]
  }
  worker = {
    headers = null
    probes  = null
    limits  = { cpu = "2" }
  }
  api = {
    limits = null
    probes = []
  }
}

explicit_null = {
  a = null
  b = null
  c = null
}

nonnull_obj = null
