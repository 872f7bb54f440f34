output "cluster_id" {
  value = scaleway_k8s_cluster.this.id
}

output "kubeconfig" {
  value     = scaleway_k8s_cluster.this.kubeconfig[0]
  sensitive = true
}
