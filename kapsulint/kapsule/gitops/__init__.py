"""Charts installed outside Terraform, by a GitOps controller or a release tool, as sources of the
values the chart rules judge: Argo CD ``Application``s (:mod:`.argocd`), Flux ``HelmRelease``s
(:mod:`.flux`, with the ConfigMaps, Secrets and Kustomize generators their ``valuesFrom`` name,
:mod:`.kustomize`) and helmfile releases (:mod:`.helmfile`). Each tool's values merge in its own
order, every value keeping the place it is written; :mod:`.releases` gathers them, with the places
where a values source named in the repository could not be read (KAP019).
"""
