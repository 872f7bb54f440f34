locals {
  yaml_values