# A local whose expression fails: the console reports the error, then answers the query anyway,
# with the failed local unknown.
locals {
  broken = yamldecode("a: [1")
  fine   = "fine"
  uses   = "${local.fine}-x"
}
