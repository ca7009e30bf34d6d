#import "ATLMapView.h"

@implementation ATLMapView
@end
