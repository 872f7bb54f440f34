for = /* c */ !1

