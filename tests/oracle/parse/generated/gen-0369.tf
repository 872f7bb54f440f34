in
""
if
{}d-e
{ k = 1 }
true { k = 1 }