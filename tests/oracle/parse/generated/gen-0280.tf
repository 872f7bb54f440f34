true = /* c */ null # c
|| # c
null
