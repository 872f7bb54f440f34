"""ReadWriteMany or ReadOnlyMany asked of a block storage class.

## What it does
Reports a `ReadWriteMany` or `ReadOnlyMany` access mode requested from a Scaleway block storage
class (`sbs-*`, `scw-bssd*`, or the cluster's default class, `sbs-default`).

## Why is this bad
Kapsule's default storage is Scaleway Block Storage, through the Block Volume CSI driver, which
supports single-node access modes only (Kubernetes' `ReadWriteOnce` and `ReadWriteOncePod`): a
block volume is attached to one node at a time. A claim for `ReadWriteMany` or `ReadOnlyMany` on
such a class is never provisioned; it stays Pending and the pods that mount it never start,
while `terraform apply` or `helm install` reports success. Volumes shared between nodes need the
File Storage CSI (`filestorage.csi.scaleway.com`, classes `sfs-*`).

Judged: `kubernetes_persistent_volume_claim(_v1)` resources, `kubernetes_manifest` resources of
kind PersistentVolumeClaim, and any Helm values mapping with `accessModes` beside `storageClass` or
`storageClassName` (the common chart layout). A claim that names no class uses the default class,
so it is judged when the scan holds a Kapsule cluster; in Helm values an empty or absent class is
left to the chart and not judged. The finding points at the access mode.

Source: Scaleway Block Volume CSI driver, `supportedAccessModes`
(https://github.com/scaleway/scaleway-csi/blob/v0.3.6/pkg/driver/controller.go), and Scaleway
documentation, "Managing storage" and "Using File Storage with Kubernetes"
(https://www.scaleway.com/en/docs/kubernetes/how-to/manage-storage/,
https://www.scaleway.com/en/docs/kubernetes/how-to/use-sfs-with-kubernetes/).

## Example
```hcl
resource "kubernetes_persistent_volume_claim_v1" "shared" {
  metadata { name = "shared" }
  spec {
    access_modes       = ["ReadWriteMany"]
    storage_class_name = "sbs-default"
    resources { requests = { storage = "10Gi" } }
  }
}
```

## Use instead
```hcl
resource "kubernetes_persistent_volume_claim_v1" "shared" {
  metadata { name = "shared" }
  spec {
    access_modes       = ["ReadWriteMany"]
    storage_class_name = "sfs-standard"
    resources { requests = { storage = "100Gi" } }
  }
}
```

No automatic fix: an access mode cannot change on an existing claim, and whether one node is
enough (`ReadWriteOnce`) or file storage is needed is the author's choice.

## References
- [Managing storage on Kapsule](https://www.scaleway.com/en/docs/kubernetes/how-to/manage-storage/)
- [Using File Storage with Kubernetes](https://www.scaleway.com/en/docs/kubernetes/how-to/use-sfs-with-kubernetes/)
"""

from collections.abc import Iterator

from kapsulint.api import Finding, Project, Related, finding, shown_text
from kapsulint.kapsule import storage

ID = "KAP315"
NAME = "block-volume-shared-access"
SEVERITY = "error"


def check(project: Project) -> Iterator[Finding]:
    for claim in storage.claims(project):
        if not storage.is_block_class(claim.storage_class) or not claim.modes.known or not claim.modes.is_list:
            continue
        for mode in claim.modes.elements():
            text = mode.text() if mode.known and isinstance(mode.raw, str) else None
            if text is None or text.strip() not in storage.SHARED_ACCESS_MODES or mode.loc is None:
                continue
            which = (f"the default class {storage.DEFAULT_CLASS}" if claim.defaulted
                     else f"the block storage class {claim.storage_class}")
            related = [Related(claim.class_loc, "the storage class")] if claim.class_loc is not None else []
            yield finding(
                mode.loc,
                f"{claim.subject} asks {shown_text(mode, text.strip())} of {which}: block volumes attach to one node "
                "at a time, so the claim is never provisioned",
                subject=claim.subject,
                instance=claim.instance,
                related=related,
                logical=f"{claim.subject}.access_modes.{text.strip()}",
                fix="use ReadWriteOnce, or a File Storage class (sfs-standard) for volumes shared between nodes",
            )
