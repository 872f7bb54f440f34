if
"${x}"
null
{} x1 { k = 1 }
d-e "l" null { k = 1 } 