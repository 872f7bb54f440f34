in
""
""
{}in
""
""
{}true { k = 1 }