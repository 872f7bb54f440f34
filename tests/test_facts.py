"""Behaviour of the Kapsule domain facts: node types, cluster types, labels, zones, annotations, charts."""

from __future__ import annotations

import pytest

from kapsulint.kapsule import (
    charts,
    cluster_options,
    cluster_types,
    helm_provider,
    lb_annotation_keys,
    node_labels,
    node_types,
    provider_features,
    zones,
)
from kapsulint.kapsule.charts import haproxytech, ingress_nginx, registry, traefik

# --- node types --------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "expected"),
    [("pro2_xxs", "PRO2-XXS"), ("  Pop2-HC-4c-8g ", "POP2-HC-4C-8G"), ("DEV1-M", "DEV1-M")],
)
def test_normalize_node_type(raw, expected):
    assert node_types.normalize_node_type(raw) == expected


@pytest.mark.parametrize(
    ("node_type", "family"),
    [
        ("POP2-HC-4C-8G", "POP2-HC"),
        ("pop2_hm_2c_16g", "POP2-HM"),
        ("POP2-4C-16G", "POP2"),
        ("pro2_xxs", "PRO2"),
        ("PRO2-XXL", "PRO2"),  # unknown size, known family
        ("VC1S", "VC1"),
        ("H100-SXM-2-80G", "H100-SXM"),
        ("H100-1-80G", "H100"),
        ("L40S-1-48G", "L40S"),
        ("L4-1-24G", "L4"),
        ("ENT1-S", "ENT1"),
        ("POP2-2C-8G-WIN", "POP2"),
        ("GPU-3070-S", None),
        ("banana", None),
        ("", None),
    ],
)
def test_node_type_family(node_type, family):
    assert node_types.node_type_family(node_type) == family


@pytest.mark.parametrize(
    ("node_type", "shared"),
    [
        ("DEV1-M", True),
        ("gp1_xs", True),
        ("PLAY2-NANO", True),
        ("PRO2-S", True),
        ("COPARM1-2C-8G", True),
        ("BASIC2-A2C-4G", True),
        ("STARDUST1-S", True),
        ("START1-M", True),
        ("VC1M", True),
        ("X64-15GB", True),
        ("POP2-2C-8G", False),
        ("POP2-HC-2C-4G", False),
        ("POP2-HN-10", False),
        ("STANDARD3-X2C-8G", False),
        ("ENT1-XL", False),
        ("BASIC3-X2C-4G", None),
        ("COMPUTE3-X4C-8G", None),
        ("STANDARD2-A2C-8G", None),
        ("L4-1-24G", None),
        ("RENDER-S", None),
        ("totally-unknown", None),
    ],
)
def test_is_shared_vcpu(node_type, shared):
    assert node_types.is_shared_vcpu(node_type) is shared


def test_instance_type_records():
    t = node_types.INSTANCE_TYPES["PRO2-XXS"]
    assert (t.family, t.vcpus, t.ram_gib, t.arch, t.shared) == ("PRO2", 2, 8.0, "x86_64", True)
    assert t.kapsule_eligible is True and t.end_of_life is False
    assert node_types.instance_type("basic2_a4c_16g").arch == "arm64"
    assert node_types.INSTANCE_TYPES["DEV1-S"].kapsule_eligible is False
    assert node_types.INSTANCE_TYPES["X64-60GB"].end_of_life is True
    assert node_types.INSTANCE_TYPES["POP2-2C-8G-WIN"].kapsule_eligible is None
    assert node_types.INSTANCE_TYPES["BASIC3-X2C-4G"].shared is None
    # every type's family is one of the known families, and every documented
    # shared family except the sizeless ones has recorded sizes
    assert all(t.family in node_types.KNOWN_FAMILIES for t in node_types.INSTANCE_TYPES.values())
    recorded = {t.family for t in node_types.INSTANCE_TYPES.values()}
    assert recorded >= node_types.SHARED_VCPU_FAMILIES
    assert node_types.SHARED_VCPU_FAMILIES.isdisjoint(node_types.DEDICATED_VCPU_FAMILIES)


def test_ineligibility_reason():
    assert "memory" in node_types.ineligibility_reason("dev1_s")
    assert "memory" in node_types.ineligibility_reason("PLAY2-PICO")
    assert "memory" in node_types.ineligibility_reason("STARDUST1-S")
    for eol in ("START1-M", "VC1L", "X64-120GB", "ENT1-M"):
        assert "end of life" in node_types.ineligibility_reason(eol)
    assert node_types.ineligibility_reason("PLAY2-NANO") is None
    assert node_types.ineligibility_reason("POP2-2C-8G") is None
    assert node_types.ineligibility_reason("unknown-type") is None


def test_end_of_life():
    assert node_types.is_end_of_life("vc1s")
    assert node_types.is_end_of_life("ENT1-M")
    assert not node_types.is_end_of_life("DEV1-S")  # refused for its memory, not its age
    assert not node_types.is_end_of_life("unknown-type")


def test_known_node_types_and_suggestions():
    assert node_types.is_known_node_type("pro2_xxs")
    assert node_types.is_known_node_type("POP2-HN-10")
    assert not node_types.is_known_node_type("PRO2-XXL")
    assert not node_types.is_known_node_type("external")
    assert node_types.suggest_node_type("PRO2-XXL") == "PRO2-XXS"
    assert node_types.suggest_node_type("pop2-hc-4c-16g") in {"POP2-HC-4C-8G", "POP2-HC-8C-16G"}
    assert node_types.suggest_node_type("POP2-HC-4C-8G") is None  # already known
    assert node_types.suggest_node_type("NOPE-1") is None  # unknown family
    # ineligible sizes are not suggested when usable ones exist
    assert node_types.suggest_node_type("PLAY2-PICOO") != "PLAY2-PICO"


def test_external_and_windows():
    assert node_types.is_external_node_type("External")
    assert not node_types.is_external_node_type("PRO2-XS")
    assert node_types.is_windows_node_type("pop2_2c_8g_win")


# --- cluster types -----------------------------------------------------------


def test_cluster_types():
    assert cluster_types.DEFAULT_CLUSTER_TYPE == "kapsule"
    assert cluster_types.cluster_type(None).max_nodes == 150
    assert cluster_types.cluster_type("kapsule").max_nodes == 150
    assert cluster_types.cluster_type("Kapsule-Dedicated-4").max_nodes == 250
    assert cluster_types.cluster_type("kapsule-dedicated-8").max_nodes == 500
    assert cluster_types.cluster_type("kapsule-dedicated-16").max_nodes == 500
    assert cluster_types.cluster_type("kapsule").sla is False
    assert cluster_types.cluster_type("kapsule-dedicated-8").dedicated is True
    assert cluster_types.cluster_type("multicloud").max_nodes is None  # unverified
    assert cluster_types.cluster_type("multicloud-dedicated-8").kosmos is True
    assert cluster_types.cluster_type("nonsense") is None


def test_etcd_quotas():
    assert cluster_types.cluster_type(None).max_etcd_mb == 55
    assert cluster_types.cluster_type("kapsule-dedicated-4").max_etcd_mb == 200
    assert cluster_types.cluster_type("multicloud-dedicated-16").max_etcd_mb == 200
    assert cluster_types.cluster_type("multicloud").max_etcd_mb is None  # no recorded source
    assert cluster_types.cluster_type("multicloud-dedicated-4").max_etcd_mb is None


def test_gpu_node_types():
    assert node_types.is_gpu_node_type("L4-1-24G") is True
    assert node_types.is_gpu_node_type("render_s") is True
    assert node_types.is_gpu_node_type("H100-SXM-16-80G") is True  # an unknown size of a GPU family
    assert node_types.is_gpu_node_type("POP2-HC-4C-8G") is False
    assert node_types.is_gpu_node_type("ACME-1") is None
    recorded = {t.family for t in node_types.INSTANCE_TYPES.values() if t.gpu is not None}
    assert recorded == node_types.GPU_FAMILIES


def test_is_kosmos_type():
    assert cluster_types.is_kosmos_type("multicloud")
    assert cluster_types.is_kosmos_type("multicloud-dedicated-16")
    assert not cluster_types.is_kosmos_type("kapsule")
    assert not cluster_types.is_kosmos_type(None)
    assert cluster_types.is_kapsule_type(None)
    assert not cluster_types.is_kapsule_type("multicloud")


# --- tags -> labels / taints -------------------------------------------------


def test_labels_from_tags():
    labels = node_labels.labels_from_tags(
        [
            "role=ingress",
            "noprefix=tier=edge",
            "noprefix=node.kubernetes.io/role=front",
            "terraform",  # plain tag: no label
            "taint=dedicated=ingress:NoSchedule",  # a taint, not a label
            "bad key=x",
            "node.kubernetes.io/exclude-from-external-load-balancers",
        ]
    )
    assert labels == {
        "k8s.scaleway.com/role": "ingress",
        "tier": "edge",
        "node.kubernetes.io/role": "front",
        "k8s.scaleway.com/bad": "key",
        node_labels.EXCLUDE_FROM_LB_LABEL: "managed-by-scaleway-ccm",
    }


def test_labels_from_tags_rejects_invalid():
    assert node_labels.labels_from_tags(["-bad=x", "ok=-bad", "noprefix=a/b/c=d", "noprefix=Bad_Prefix/k=v"]) == {}
    assert node_labels.labels_from_tags([]) == {}


def test_taints_from_tags():
    taints = node_labels.taints_from_tags(
        [
            "taint=dedicated=ingress:NoSchedule",
            "taint=noprefix=gpu=true:NoExecute",
            "taint=soft=yes:PreferNoSchedule",
            "taint=x=y:Sometimes",  # invalid effect: ignored
            "taint=nothing",  # no effect: ignored
            "role=ingress",  # a label, not a taint
        ]
    )
    assert taints == [
        ("k8s.scaleway.com/dedicated", "ingress", "NoSchedule"),
        ("gpu", "true", "NoExecute"),
        ("k8s.scaleway.com/soft", "yes", "PreferNoSchedule"),
    ]


def test_automatic_node_labels():
    labels = node_labels.automatic_node_labels(pool_name="ingress", node_type="pop2_2c_8g", zone="FR-PAR-2")
    assert labels[node_labels.POOL_NAME_LABEL] == "ingress"
    assert labels[node_labels.INSTANCE_TYPE_LABEL] == "POP2-2C-8G"
    assert labels[node_labels.ZONE_LABEL] == "fr-par-2"
    assert labels[node_labels.REGION_LABEL] == "fr-par"
    assert labels[node_labels.ARCH_LABEL] == "amd64"
    assert labels[node_labels.OS_LABEL] == "linux"
    assert node_labels.CSI_ZONE_LABEL in labels


def test_zones():
    assert zones.region_of_zone("nl-ams-3") == "nl-ams"
    assert zones.region_of_zone("nonsense") is None
    assert zones.first_zone_of_region("PL-WAW") == "pl-waw-1"
    assert zones.is_zone("fr-par-2")
    assert not zones.is_zone("fr-par")
    assert not zones.is_zone("FR-PAR-2")  # as written: the caller lower-cases


# --- annotations -------------------------------------------------------------


def test_annotation_names():
    assert lb_annotation_keys.LB_PROXY_PROTOCOL_V2 == "service.beta.kubernetes.io/scw-loadbalancer-proxy-protocol-v2"
    assert lb_annotation_keys.LB_SEND_PROXY_V2 in lb_annotation_keys.DEPRECATED_LB_ANNOTATIONS
    assert lb_annotation_keys.is_scaleway_lb_annotation(lb_annotation_keys.LB_IP_IDS)
    assert lb_annotation_keys.is_foreign_cloud_annotation("service.beta.kubernetes.io/aws-load-balancer-type")
    assert lb_annotation_keys.is_foreign_cloud_annotation("cloud.google.com/load-balancer-type")
    assert not lb_annotation_keys.is_foreign_cloud_annotation(lb_annotation_keys.LB_ZONE)


# --- provider features, CNIs, defaults ---------------------------------------


def test_supports():
    assert provider_features.supports("pool_labels_taints", (2, 76, 0)) is True
    assert provider_features.supports("pool_labels_taints", (2, 75, 9)) is False
    assert provider_features.supports("optional_pool_name", (2, 78)) is True
    assert provider_features.supports("optional_pool_name", (2, 77, 1)) is False
    assert provider_features.supports("sensitive_kubeconfig", (3,)) is True
    assert provider_features.supports("k8s_acl", None) is None
    with pytest.raises(KeyError):
        provider_features.supports("no_such_feature", (2, 0, 0))


def test_cnis():
    assert cluster_options.is_supported_cni("cilium", kosmos=False, k8s_version=None) is True
    assert cluster_options.is_supported_cni("calico", kosmos=False, k8s_version=(1, 31)) is True
    assert cluster_options.is_supported_cni("cilium_native", kosmos=False, k8s_version=(1, 34, 1)) is True
    assert cluster_options.is_supported_cni("cilium_native", kosmos=False, k8s_version=(1, 33)) is False
    assert cluster_options.is_supported_cni("cilium_native", kosmos=False, k8s_version=None) is None
    assert cluster_options.is_supported_cni("flannel", kosmos=False, k8s_version=(1, 35)) is False
    assert cluster_options.is_supported_cni("none", kosmos=False, k8s_version=None) is True
    assert cluster_options.is_supported_cni("kilo", kosmos=False, k8s_version=None) is False
    assert cluster_options.is_supported_cni("kilo", kosmos=True, k8s_version=None) is True
    assert cluster_options.is_supported_cni("cilium", kosmos=True, k8s_version=None) is False


def test_defaults():
    assert cluster_options.DEFAULT_POD_CIDR == "100.64.0.0/15"
    assert cluster_options.DEFAULT_SERVICE_CIDR == "10.32.0.0/20"


# --- charts ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("chart", "repository", "key"),
    [
        ("kubernetes-ingress", "https://haproxytech.github.io/helm-charts", "haproxytech"),
        ("haproxytech/kubernetes-ingress", None, "haproxytech"),
        ("ingress-nginx", "https://kubernetes.github.io/ingress-nginx", "ingress-nginx"),
        ("ingress-nginx/ingress-nginx", None, "ingress-nginx"),
        ("traefik", "https://traefik.github.io/charts", "traefik"),
        ("traefik", "https://helm.traefik.io/traefik", "traefik"),
        ("oci://registry.example.com/charts/traefik", None, "traefik"),
        (
            "https://github.com/haproxytech/helm-charts/releases/download/kubernetes-ingress-1.52.1/kubernetes-ingress-1.52.1.tgz",
            None,
            "haproxytech",
        ),
        ("traefik", "https://mirror.example.com/charts", "traefik"),  # unknown mirror
        ("Traefik", None, "traefik"),
    ],
)
def test_controller_for_chart(chart, repository, key):
    ctl = registry.controller_for_chart(chart, repository)
    assert ctl is not None and ctl.key == key


@pytest.mark.parametrize(
    ("chart", "repository"),
    [
        ("cert-manager", "https://charts.jetstack.io"),
        ("traefik-crds", "https://traefik.github.io/charts"),
        ("haproxy-ingress", None),  # a different project, not haproxytech
        ("traefik", "https://kubernetes.github.io/ingress-nginx"),  # conflicting repository
        ("", None),
        (None, None),
    ],
)
def test_controller_for_chart_none(chart, repository):
    assert registry.controller_for_chart(chart, repository) is None


def test_controller_from_values():
    haproxy = {"controller": {"service": {"type": "LoadBalancer", "enablePorts": {"stat": False}}}}
    assert registry.controller_from_values(haproxy) is haproxytech.CHART
    nginx = {"controller": {"config": {"use-proxy-protocol": "true"}}}
    assert registry.controller_from_values(nginx) is ingress_nginx.CHART
    entry_points = {"ports": {"websecure": {"proxyProtocol": {"insecure": True}}}}
    assert registry.controller_from_values(entry_points) is traefik.CHART
    # controller.* alone never decides
    generic = {"controller": {"replicaCount": 2, "service": {"type": "LoadBalancer"}, "config": {}}}
    assert registry.controller_from_values(generic) is None
    # keys of two charts: ambiguous
    both = {**nginx, **entry_points}
    assert registry.controller_from_values(both) is None
    assert registry.controller_from_values_keys({("additionalArguments",)}) is traefik.CHART


def test_controller_paths_and_defaults():
    assert haproxytech.CHART.node_selector_path == ("controller", "nodeSelector")
    assert ingress_nginx.CHART.node_selector_path == ("controller", "nodeSelector")
    assert traefik.CHART.node_selector_path == ("nodeSelector",)
    ht = haproxytech.CHART
    assert charts.chart_default(ht.default_service_type, None) == "NodePort"
    assert charts.chart_default(traefik.CHART.default_service_type, (41, 3, 0)) == "LoadBalancer"
    assert (
        charts.chart_default(traefik.CHART.default_service_type, (30, 0, 0), known_since=traefik.CHART.known_since)
        is None
    )
    assert charts.chart_default(ingress_nginx.CHART.default_node_selector, None) == {"kubernetes.io/os": "linux"}
    assert charts.chart_default(((None, "a"), ((2, 0, 0), "b")), None) is None  # versions disagree
    assert charts.chart_default(((None, "a"), ((2, 0, 0), "b")), (2, 1)) == "b"


def test_haproxy_admin_ports():
    assert (haproxytech.STATS_PORT, haproxytech.PPROF_PORT) == (1024, 6060)
    assert haproxytech.pprof_port_key((1, 52, 1)) == "admin"
    assert haproxytech.pprof_port_key((1, 44, 3)) is None
    assert haproxytech.pprof_port_key((1, 42, 0)) == "prometheus"
    assert haproxytech.pprof_port_key(None) is None


def test_traefik_proxy_protocol_args():
    a = traefik.parse_proxy_protocol_argument("--entryPoints.websecure.proxyProtocol.insecure")
    assert a == traefik.ProxyProtocolArgument("websecure", "insecure", "true")
    b = traefik.parse_proxy_protocol_argument("--entrypoints.web.proxyprotocol.trustedIPs=10.0.0.0/8,0.0.0.0/0")
    assert b == traefik.ProxyProtocolArgument("web", "trustedIPs", "10.0.0.0/8,0.0.0.0/0")
    assert traefik.parse_proxy_protocol_argument("--log.level=DEBUG") is None
    assert traefik.parse_proxy_protocol_argument("--entryPoints.web.proxyProtocol.trustedIPs") is None


def test_proxy_protocol_paths():
    assert haproxytech.CONFIG_PATH + (haproxytech.PROXY_PROTOCOL_KEY,) == ("controller", "config", "proxy-protocol")
    assert ingress_nginx.CONFIG_PATH + (ingress_nginx.USE_PROXY_PROTOCOL_KEY,) == ("controller", "config", "use-proxy-protocol")
    assert ingress_nginx.PROXY_REAL_IP_CIDR_DEFAULT == "0.0.0.0/0"


def test_helm_provider_facts():
    assert helm_provider.is_helm_v3((3, 0, 0)) is True
    assert helm_provider.is_helm_v3((2, 17)) is False
    assert helm_provider.is_helm_v3(None) is None
    assert ("provider", "kubernetes") in helm_provider.HELM_V2_BLOCKS_INVALID_ON_V3


def test_service_enabled_paths():
    assert ingress_nginx.CHART.service_enabled_paths == (
        ("controller", "service", "enabled"),
        ("controller", "service", "external", "enabled"),
    )
    assert haproxytech.CHART.service_enabled_paths == (("controller", "service", "enabled"),)
    assert traefik.CHART.service_enabled_paths == (("service", "enabled"),)


def test_facts_page_names_every_domain_module_with_its_source_date():
    """docs/facts.md lists every module of kapsulint/kapsule/: in the table, with its sources and
    the version or date they were read at, or among the modules that hold questions only."""
    import pathlib
    import re

    root = pathlib.Path(__file__).resolve().parent.parent
    page = (root / "docs" / "facts.md").read_text(encoding="utf-8")
    rows = [line for line in page.splitlines() if line.startswith("| `")]
    in_table = {name for row in rows for name in re.findall(r"`(\w+\.py)`", row.split(" | ")[0])}
    for row in rows:
        cells = row.split(" | ")
        assert len(cells) == 5 and "https://" in cells[2] and re.search(r"\d", cells[3]), row
    questions = page.split("hold questions, not facts:")[1]
    modules = {path.name for path in (root / "kapsulint" / "kapsule").glob("*.py") if path.name != "__init__.py"}
    listed = in_table | set(re.findall(r"`(\w+\.py)`", questions))
    assert modules <= listed, sorted(modules - listed)


def test_lb_annotation_catalogue_holds_the_ccm_keys_and_reads_values_as_the_ccm():
    from kapsulint.kapsule import lb_annotation_catalogue as catalogue
    from kapsulint.kapsule import lb_annotation_keys, lb_annotations

    assert len(catalogue.ANNOTATIONS) == 49
    assert all(name.startswith("scw-loadbalancer-") for name in catalogue.ANNOTATIONS)
    for key in (*lb_annotation_keys.DEPRECATED_LB_ANNOTATIONS, lb_annotation_keys.LB_IP_IDS, lb_annotation_keys.LB_ZONE):
        assert catalogue.is_known_key(key)
    assert {name for name, fact in catalogue.ANNOTATIONS.items() if fact.kind == "enum"} | {
        "scw-loadbalancer-health-check-type"} == set(lb_annotations.ENUMS)
    prefix = catalogue.PREFIX
    assert catalogue.closest_key(prefix + "scw-loadbalancer-proxy-protocl-v2") == prefix + "scw-loadbalancer-proxy-protocol-v2"
    assert catalogue.closest_key("scw-loadbalancer-zone") == prefix + "scw-loadbalancer-zone"
    assert catalogue.closest_key(prefix + "scw-lb-use-hostname") == prefix + "scw-loadbalancer-use-hostname"
    assert catalogue.closest_key(prefix + "scw-loadbalancer-foo") is None
    assert not catalogue.looks_scaleway("service.beta.kubernetes.io/aws-load-balancer-type")
    problem = catalogue.value_problem
    assert problem("scw-loadbalancer-timeout-server", "1h2m3.5s") is None and problem("scw-loadbalancer-timeout-server", "0") is None
    assert problem("scw-loadbalancer-timeout-server", "10") and problem("scw-loadbalancer-timeout-server", "10 s")
    assert problem("scw-loadbalancer-max-retries", "+3") is None and problem("scw-loadbalancer-max-retries", " 3")
    assert problem("scw-loadbalancer-private", "True") is None and problem("scw-loadbalancer-private", "yes")
    assert problem("scw-loadbalancer-proxy-protocol-v1", "1") is None  # port 1, as isPortInRange reads it
    assert problem("scw-loadbalancer-proxy-protocol-v1", "0") and problem("scw-loadbalancer-proxy-protocol-v1", "70000")
    assert problem("scw-loadbalancer-proxy-protocol-v1", "0x50,443") is None
    assert problem("scw-loadbalancer-health-check-http-uri", "80:/;443:https://x/healthz")
    assert problem("scw-loadbalancer-id", "fr-par/6a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d") is None
    assert problem("scw-loadbalancer-id", "6a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d")
    assert problem("scw-loadbalancer-type", "anything") is None and problem("scw-loadbalancer-sticky-sessions", "x") is None
    assert catalogue.fact("scw-loadbalancer-ip-ids").changing == "re-creates the load balancer"
