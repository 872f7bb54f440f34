in
{}

in /* c */ if /* c */ {} # c
