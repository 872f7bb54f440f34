a = local.名前
