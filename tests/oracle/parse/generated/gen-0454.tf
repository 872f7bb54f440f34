in ={for x in {for k, in x.y :x.y => x.y
if x} :{for k, in x.y :x.y => x.y
if x} => {for k, in x.y :x.y => x.y
if x}}
