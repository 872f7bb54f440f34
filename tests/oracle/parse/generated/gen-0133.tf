x1 /* c */ null /* c */ null /* c */ {
}

for
null
null
{} x1 = !1
