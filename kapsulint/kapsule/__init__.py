"""The Kapsule domain layer: what kapsulint knows about Scaleway and the charts it installs.

What lives here, and what rules import besides ``kapsulint.api``:

* facts as data, one topic per module, each citing its public sources by URL (``docs/facts.md``
  says where each comes from and how to update it): node types (``node_types``), cluster types
  (``cluster_types``), cluster and pool arguments (``cluster_options``, ``pool_options``), node
  labels and zones (``node_labels``, ``zones``), load balancer annotations
  (``lb_annotation_keys``), provider releases and features (``provider_releases``,
  ``provider_features``), Kubernetes versions (``version_calendar``, ``version_features``),
  ingress controller charts (``charts``) and Helm's ``--set`` syntax (``strvals``);
* the questions rules ask about a configuration, answered over the api's evaluated values:
  clusters and pools (``clusters``, ``pool_sizes``, ``replacement``, ``scheduling``), Helm
  releases and their values (``helm``, ``helm_provider``, ``helm_values``; charts installed by
  Argo CD, Flux and helmfile in ``gitops``), the controller's Service and its
  load balancer (``service``, ``proxy_ports``, ``lb_ips``, ``lb_annotations``), every Service
  that reaches a load balancer whatever wrote it (``lb_services``, over the Kubernetes objects of
  ``kube_objects``, Envoy Gateway's data plane in ``envoy_gateway``, a Gateway's infrastructure
  annotations in ``gateway_infrastructure``, and which YAML files hold
  objects, ``yaml_kinds``), networks, storage, access, kubeconfigs and credentials;
* one module per ingress controller chart (``charts.<chart>``): its values paths,
  defaults, Service, PROXY and trust settings and version facts behind the ``charts.Chart``
  protocol, found by ``charts.registry``; nothing outside ``charts`` names a chart.

What does not: parsing files and evaluating Terraform (``kapsulint.parsing``,
``kapsulint.terraform``), reading the project and running rules (the engine packages). The
engine knows no Scaleway fact; modules here answer None ("unknown") rather than guess, so no
rule fires on Unknown.
"""
