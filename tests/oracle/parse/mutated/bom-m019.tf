a  1
