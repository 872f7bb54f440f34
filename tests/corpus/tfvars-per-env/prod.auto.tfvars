cleanup_on_destroy = true
