in
{} in /* c */ if /* c */ {}