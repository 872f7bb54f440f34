if
"${x}"
d-e
{} x1 { k = 1 }
d-e "l" null { k = 1 }
