x1 /* c */ "" /* c */ "${x}" /* c */ {
}

for
null
null
{} x1 = !1
