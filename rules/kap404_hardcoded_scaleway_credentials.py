"""Hardcoded Scaleway credentials.

## What it does
Reports Scaleway API keys written into the configuration: literal `access_key`/`secret_key` of a `provider "scaleway"` or `backend "s3"` block, and key-shaped values in variable defaults and tfvars files.

## Why is this bad
A Scaleway API key is a pair: the access key (`SCW` and 17 upper-case letters or digits)
names the key, and the secret key (a UUID) is its password. Whoever holds the secret acts with
every permission of the IAM user or application that bears the key, across the Organization: a
Kapsule cluster, its nodes, its Object Storage state bucket. Written into a `.tf` or tfvars
file, the key ends up in Git history, forks, CI logs and laptops, and it stays valid until
someone revokes it. The access key on its own is not secret, but where it is written the secret
usually sits next to it.

The rule reports:
- `access_key` or `secret_key` of a `provider "scaleway"` block whose value is a string written
  in the configuration (directly, or through a local, a variable default or a module argument);
- `access_key` or `secret_key` written in a `backend "s3"` block (the state on Scaleway Object
  Storage);
- in variable defaults and tfvars files, a string shaped like an access key, and a UUID under a
  name that contains `secret`.

Template and documentation placeholders are not credentials and are never reported:
`SCWXXXXXXXXXXXXXXXXX`, `00000000-0000-0000-0000-000000000000`, `xxxxxxxx-xxxx-...`, Jinja or
Ansible templates (`"{{ scw_secret_key }}"`), `"<YOUR_SECRET_KEY>"`, an escaped interpolation
(`"$${SECRET}"`), `"%SECRET%"`, `"__SECRET__"`, and words such as `changeme`, `your-...`,
`replace-me`, `todo` or `redacted`. The finding never shows the value.

Source: Scaleway documentation, "Terraform/OpenTofu - Scaleway environment variables"
(`SCW_ACCESS_KEY`, `SCW_SECRET_KEY`) and the IAM API keys reference. The shapes of the keys
are not stated there (https://www.scaleway.com/en/docs/iam/concepts/#api-key names an access key
and a secret key): they are those of the keys Scaleway issues.

## Example
```hcl
provider "scaleway" {
  access_key = "SCW1A2B3C4D5E6F7G8H9"
  secret_key = "5f3b1c2e-8a4d-4e6f-9b7a-1c2d3e4f5a6b"
  region     = "fr-par"
}
```

## Use instead
```hcl
# export SCW_ACCESS_KEY=... SCW_SECRET_KEY=... (from a secret store), then:
provider "scaleway" {
  region = "fr-par"
}
```

## References
- [Scaleway environment variables for Terraform/OpenTofu](https://www.scaleway.com/en/docs/terraform/reference-content/environment-variables/)
- [Scaleway IAM: API keys](https://www.scaleway.com/en/docs/iam/how-to/create-api-keys/)
- [Scaleway provider configuration](https://registry.terraform.io/providers/scaleway/scaleway/latest/docs)
- [Terraform S3 backend](https://developer.hashicorp.com/terraform/language/backend/s3)
"""

from collections.abc import Iterator

from kapsulint.api import (
    Finding,
    Loc,
    Project,
    Related,
    finding,
)
from kapsulint.kapsule import credentials

ID = "KAP404"
NAME = "hardcoded-scaleway-credentials"
SEVERITY = "error"
SECURITY = True

PROVIDER_FIX = (
    "remove the key from the code, revoke it, and give it to the provider through SCW_ACCESS_KEY "
    "and SCW_SECRET_KEY (or a sensitive variable without a default) from a secret store"
)
BACKEND_FIX = (
    "remove the key from the backend block, revoke it, and pass it through AWS_ACCESS_KEY_ID and "
    "AWS_SECRET_ACCESS_KEY or -backend-config at init time"
)
VALUE_FIX = "remove the key from the file, revoke it, and read it from the environment or a secret store"


def _providers(project: Project) -> Iterator[tuple[Loc, Finding]]:
    for instance in project.instances():
        for block in instance.module.providers:
            if block.labels[:1] != ["scaleway"]:
                continue
            for name in credentials.CREDENTIAL_ARGUMENTS:
                attribute = block.attr(name)
                if attribute is None:
                    continue
                value = instance.eval_attr(block, name)
                if not value.known or not isinstance(value.raw, str) or not value.raw.strip() or value.loc is None:
                    continue
                if credentials.is_placeholder(value.raw):
                    continue
                direct = value.loc == attribute.value_loc
                if not direct and not credentials.is_code_file(value.loc.path):
                    continue  # tfvars and the command line: judged by the shapes below
                if not credentials.written_as_string(project, value.loc):
                    continue  # built by a function (file(), ...), not written here
                where = "in the provider block"
                related = []
                if not direct:
                    where = f"at {project.relative(value.loc.path)}:{value.loc.line}"
                    related.append(Related(attribute.loc, f'{name} of provider "scaleway"'))
                yield value.loc, finding(
                    value.loc,
                    f'provider "scaleway" gets its {name} from a string written {where}: the API key '
                    "is readable by anyone who can read the repository",
                    subject='provider "scaleway"',
                    related=related,
                    logical=f"{project.relative(instance.module.path)}:provider.scaleway.{name}",
                    fix=PROVIDER_FIX,
                    secret=True,
                )


def _backends(project: Project) -> Iterator[tuple[Loc, Finding]]:
    for module in project.modules.values():
        for backend in module.backends:
            if backend.labels[:1] != ["s3"]:
                continue
            for name in credentials.CREDENTIAL_ARGUMENTS:
                attribute = backend.attr(name)
                if attribute is None or not attribute.is_literal:
                    continue
                text = attribute.literal_value
                if not isinstance(text, str) or credentials.is_placeholder(text):
                    continue
                loc = attribute.value_loc
                yield loc, finding(
                    loc,
                    f'backend "s3" has its {name} written in the configuration: the key that opens the '
                    "state bucket (and the cluster's admin kubeconfig inside) is readable by anyone "
                    "who can read the repository",
                    subject='backend "s3"',
                    logical=f"{project.relative(module.path)}:backend.s3.{name}",
                    fix=BACKEND_FIX,
                    secret=True,
                )


def _written_values(project: Project) -> Iterator[tuple[Loc, Finding]]:
    for path in sorted(project.modules):
        module = project.modules[path]
        for key in credentials.variable_default_keys(module):
            variable = key.names[0]
            yield key.loc, finding(
                key.loc,
                f'variable "{variable}" has a default that looks like a Scaleway {key.kind}'
                + (f" (at {key.name})" if len(key.names) > 1 else "")
                + ": the key is readable by anyone who can read the repository",
                subject=f'{project.relative(path)}:variable "{variable}"',
                logical=f"{project.relative(path)}:variable.{key.name}",
                fix=VALUE_FIX,
                secret=True,
            )
    for source in credentials.tfvars_files(project):
        where = project.relative(source.path)
        for key in credentials.tfvars_keys(source):
            yield key.loc, finding(
                key.loc,
                f"{key.name} in {where} looks like a Scaleway {key.kind}: the key is readable by "
                "anyone who can read the file",
                subject=where,
                logical=f"{where}:{key.name}",
                fix=VALUE_FIX,
                secret=True,
            )


def check(project: Project) -> Iterator[Finding]:
    seen = set()
    for producer in (_providers, _backends, _written_values):
        for loc, result in producer(project):
            if loc in seen:
                continue
            seen.add(loc)
            yield result
