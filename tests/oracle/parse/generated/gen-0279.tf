true = /* c */ null # c
|| # c
"${"}"}"
