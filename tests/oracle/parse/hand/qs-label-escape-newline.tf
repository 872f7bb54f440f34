a "x\ny" {}
