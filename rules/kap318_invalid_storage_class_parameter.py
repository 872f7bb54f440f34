"""StorageClass parameter the Scaleway Block Volume CSI driver refuses.

## What it does
Reports a StorageClass of the `csi.scaleway.com` provisioner with a parameter the driver does not
know, an `iops` above 15 000, or `encrypted: "true"` without the node-stage secret parameters.

## Why is this bad
The Block Volume CSI driver reads a StorageClass's parameters when it creates a volume: it knows
`type`, `encrypted` and `iops` (besides Kubernetes' own `csi.storage.k8s.io/*` keys) and refuses
any other key ("invalid parameter key"), and volumes offer at most 15 000 IOPS. An encrypted
volume is opened on the node with a passphrase the driver reads from the secret named by
`csi.storage.k8s.io/node-stage-secret-name` and `-namespace`; without them the volume cannot be
staged. In each case the StorageClass itself is accepted by Kubernetes, and every claim on it
stays Pending or every pod using it fails to start.

Judged: `kubernetes_storage_class(_v1)` resources and `kubernetes_manifest` StorageClasses whose
provisioner is `csi.scaleway.com`. Keys are case-sensitive, as the driver reads them; a value
kapsulint cannot compute is not judged. The finding points at the parameter's key (its value for
`iops`).

Source: Scaleway Block Volume CSI driver at v0.3.6, `parseCreateVolumeParams`, README and
encryption example (https://github.com/scaleway/scaleway-csi/blob/v0.3.6/README.md,
https://github.com/scaleway/scaleway-csi/blob/v0.3.6/examples/kubernetes/README.md).

## Example
```hcl
resource "kubernetes_storage_class_v1" "fast" {
  metadata { name = "fast" }
  storage_provisioner = "csi.scaleway.com"
  parameters = {
    iops      = "20000"
    encrypted = "true"
  }
}
```

## Use instead
```hcl
resource "kubernetes_storage_class_v1" "fast" {
  metadata { name = "fast" }
  storage_provisioner = "csi.scaleway.com"
  parameters = {
    iops                                            = "15000"
    encrypted                                       = "true"
    "csi.storage.k8s.io/node-stage-secret-name"      = "enc-secret"
    "csi.storage.k8s.io/node-stage-secret-namespace" = "default"
  }
}
```

No automatic fix: the parameter meant (or the IOPS, or the secret that goes with encryption)
cannot be told from the one written.

## References
- [Scaleway Block Volume CSI driver](https://github.com/scaleway/scaleway-csi)
- [Managing storage on Kapsule](https://www.scaleway.com/en/docs/kubernetes/how-to/manage-storage/)
"""

from collections.abc import Iterator
from fractions import Fraction

from kapsulint.api import (
    Finding,
    Project,
    Val,
    finding,
    number,
    shown,
)
from kapsulint.kapsule import storage

ID = "KAP318"
NAME = "invalid-storage-class-parameter"
SEVERITY = "error"


def _iops(value: Val) -> float | Fraction | None:
    if not value.known or value.raw is None:
        return None
    text = value.text()
    try:
        return float(text) if text is not None else number(value)
    except (TypeError, ValueError):
        return None


def check(project: Project) -> Iterator[Finding]:
    for sc in storage.block_storage_classes(project):
        parameters = sc.parameters
        if not parameters.known or not parameters.is_object:
            continue
        for key, _value in parameters.items():
            name = key.strip()
            if name in storage.CLASS_PARAMETERS or name.startswith(storage.KUBERNETES_PARAMETER_PREFIX):
                continue
            loc = parameters.key_loc(key)
            if loc is not None:
                yield finding(
                    loc,
                    f"{sc.subject} sets the parameter {name!r}, which the Scaleway Block Volume CSI driver "
                    "refuses (it knows type, encrypted, iops and csi.storage.k8s.io/*)",
                    subject=sc.subject, instance=sc.instance, logical=f"{sc.subject}.parameters.{name}",
                    fix="remove it, or spell it as one of type, encrypted, iops",
                )
        iops = parameters.get("iops")
        amount = _iops(iops)
        if amount is not None and amount > storage.MAX_IOPS and iops.loc is not None:
            yield finding(
                iops.loc,
                f"{sc.subject} asks iops {shown(iops)}: Scaleway block volumes offer at most {storage.MAX_IOPS}",
                subject=sc.subject, instance=sc.instance, logical=f"{sc.subject}.parameters.iops",
                fix=f"set iops to {storage.MAX_IOPS} or less",
            )
        encrypted = parameters.get("encrypted")
        text = encrypted.text() if encrypted.known else None
        if text is not None and text.strip().lower() == "true" and not parameters.open:
            missing = [k for k in storage.NODE_STAGE_SECRET if parameters.get(k).raw is None]
            loc = parameters.key_loc("encrypted")
            if missing and loc is not None:
                yield finding(
                    loc,
                    f"{sc.subject} encrypts its volumes without {', '.join(missing)}: the driver cannot "
                    "read the passphrase, so the volumes cannot be staged on a node",
                    subject=sc.subject, instance=sc.instance, logical=f"{sc.subject}.parameters.encrypted",
                    fix="add csi.storage.k8s.io/node-stage-secret-name and -namespace naming a secret "
                        "with the key encryptionPassphrase",
                )
